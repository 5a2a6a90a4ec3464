import type { ApiRouter, HotRoute } from '../serving/routeHandler.js';
import { createResponseRoute } from './createResponseRoute.js';
import type { ResponsesContext } from './responsesContext.js';
import { cancelResponseRoute, deleteResponseRoute, inputItemsRoute, retrieveResponseRoute } from './storedResponseRoutes.js';

/** Mounts the Responses API; `POST /responses` is returned as the hot route it is (served without Express's router). */
export function responsesApi({ router, mount, knownModel }: ApiRouter, context: ResponsesContext): HotRoute[] {
  const handlers = [knownModel, mount(createResponseRoute(context))];
  const route = router.route<string>('/responses');
  route.post(...handlers);
  router.get('/responses/:id', mount(retrieveResponseRoute(context)));
  router.get('/responses/:id/input_items', mount(inputItemsRoute(context)));
  router.delete('/responses/:id', mount(deleteResponseRoute(context)));
  router.post('/responses/:id/cancel', mount(cancelResponseRoute(context)));
  return [{ method: 'POST', route, handlers }];
}
