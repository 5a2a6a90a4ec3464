import type { ApiRouter, HotRoute } from '../serving/routeHandler.js';
import { countTokensRoute } from './countTokensRoute.js';
import { messagesRoute, type MessagesContext } from './messagesRoute.js';

/** Mounts `POST /messages` and `POST /messages/count_tokens`, and returns the first as the hot route it is. */
export function messagesApi({ router, mount, knownModel }: ApiRouter, context: MessagesContext): HotRoute[] {
  router.post('/messages/count_tokens', knownModel, mount(countTokensRoute()));
  const handlers = [knownModel, mount(messagesRoute(context))];
  const route = router.route<string>('/messages');
  route.post(...handlers);
  return [{ method: 'POST', route, handlers }];
}
