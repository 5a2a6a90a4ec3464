import { startBenchUpstream } from './benchUpstream.js';

// The bench upstream in a process of its own, telling the bench over IPC what it saw, and releasing held streams when told.
const { port, release } = await startBenchUpstream((event) => process.send!(event));
process.on('message', ({ name }: { type: 'release'; name: string }) => process.send!({ type: 'released', name, open: release(name) }));
process.send!({ type: 'ready', port });
process.once('SIGINT', () => process.exit(0));
