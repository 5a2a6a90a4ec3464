import type { ApiRouter, HotRoute } from '../serving/routeHandler.js';
import { createResponseRoute } from './createResponseRoute.js';
import type { ResponsesContext } from './responsesContext.js';
import { upgradeOf } from '../serving/upgrades.js';
import type { ResponsesSockets } from './socket/ResponsesSockets.js';
import { cancelResponseRoute, deleteResponseRoute, inputItemsRoute, retrieveResponseRoute } from './storedResponseRoutes.js';

/**
 * Mounts the Responses API; `POST /responses` is returned as the hot route it is (served without
 * Express's router). `GET /responses` takes a WebSocket upgrade (`sockets`), and nothing else.
 */
export function responsesApi({ router, mount, knownModel }: ApiRouter, context: ResponsesContext, sockets: ResponsesSockets): HotRoute[] {
  const handlers = [knownModel, mount(createResponseRoute(context))];
  const route = router.route<string>('/responses');
  route.post(...handlers);
  const connect = mount((req, res) => sockets.accept(req, res));
  route.get((req, res, next) => (upgradeOf(req) ? connect(req, res, next) : next()));
  router.get('/responses/:id', mount(retrieveResponseRoute(context)));
  router.get('/responses/:id/input_items', mount(inputItemsRoute(context)));
  router.delete('/responses/:id', mount(deleteResponseRoute(context)));
  router.post('/responses/:id/cancel', mount(cancelResponseRoute(context)));
  return [{ method: 'POST', route, handlers }];
}
