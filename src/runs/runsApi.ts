import type { ApiRouter } from '../serving/routeHandler.js';
import { approvalRoute } from './approvalRoute.js';
import { listRunsRoute } from './listRunsRoute.js';
import { createRunRoute, retrieveRunRoute, runEventsRoute, stopRunRoute } from './runRoutes.js';
import type { RunsContext } from './runsContext.js';
import { steerRoute } from './steerRoute.js';

/** Mounts the Runs API; `knownModel` refuses a run for a model no route takes before it starts. */
export function runsApi({ router, mount, knownModel }: ApiRouter, context: RunsContext): void {
  router.post('/runs', knownModel, mount(createRunRoute(context)));
  router.get('/runs', mount(listRunsRoute(context)));
  router.get('/runs/:id', mount(retrieveRunRoute(context)));
  router.get('/runs/:id/events', mount(runEventsRoute(context)));
  router.post('/runs/:id/stop', mount(stopRunRoute(context)));
  router.post('/runs/:id/approval', mount(approvalRoute(context)));
  router.post('/runs/:id/steer', mount(steerRoute(context)));
}
