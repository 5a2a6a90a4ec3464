import type { ApiRouter, HotRoute } from '../serving/routeHandler.js';
import { chatCompletionsRoute, type ChatCompletionsContext } from './chatCompletionsRoute.js';

/** Mounts `POST /chat/completions`, and returns it as the hot route it is (served without Express's router). */
export function chatApi({ router, mount, knownModel }: ApiRouter, context: ChatCompletionsContext): HotRoute[] {
  const handlers = [knownModel, mount(chatCompletionsRoute(context))];
  const route = router.route<string>('/chat/completions');
  route.post(...handlers);
  return [{ method: 'POST', route, handlers }];
}
