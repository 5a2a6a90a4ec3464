import { it } from 'vitest';
import { answer } from './support/scriptedUpstream.js';
import { useLlmGateway } from './support/startLlmGateway.js';
const gateways = useLlmGateway();


it('probe', async () => {
  const { gateway } = await gateways.start(Array.from({ length: 20 }, () => answer('ok')));
  const post = async (path: string, body: string) => {
    const r = await fetch(`${gateway.url}${path}`, { method: 'POST', body });
    console.log(path, body.slice(0, 80), r.status, (await r.text()).slice(0, 200));
  };
  const d = '['.repeat(100000) + '1' + ']'.repeat(100000);
  await post('/v1/chat/completions', `{"messages":[{"role":"user","content":"hi"}],"x":${d}}`);
  await post('/v1/chat/completions', `{"messages":[{"role":"user","content":${d}}]}`);
  await post('/v1/chat/completions', `{"messages":[{"role":"user","content":"hi"}],"metadata":{"a":${d}}}`);
  await post('/v1/chat/completions', `{"messages":[{"role":"user","content":"hi"}],"tools":${d}}`);
  await post('/v1/chat/completions', `{"messages":[{"role":"user","content":"hi"}],"stop":${d}}`);
  await post('/v1/responses', `{"input":${d}}`);
  await post('/v1/responses', `{"input":[{"role":"user","content":"hi"},${d}]}`);
  await post('/v1/responses', `{"input":[{"role":"user","content":[${d}]}]}`);
  await post('/v1/responses', `{"input":[{"role":"user","content":"hi"},{"type":"function_call_output","call_id":"a","output":${d}}]}`);
  await post('/v1/responses', `{"input":"hi","y":${d}}`);
  await post('/v1/runs', `{"input":[${d}]}`);
  await post('/v1/runs', `{"input":"hi","metadata":${d}}`);
  await post('/v1/chat/completions', d);
});
