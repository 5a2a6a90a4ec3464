import { startBenchUpstream } from './benchUpstream.js';

// The bench upstream in a process of its own, telling the bench over IPC what it saw.
const { port } = await startBenchUpstream((event) => process.send!(event));
process.send!({ type: 'ready', port });
process.once('SIGINT', () => process.exit(0));
