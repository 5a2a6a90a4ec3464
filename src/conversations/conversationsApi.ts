import type { ApiRouter } from '../serving/routeHandler.js';
import {
  appendItemsRoute,
  createConversationRoute,
  deleteConversationRoute,
  deleteItemRoute,
  listItemsRoute,
  retrieveConversationRoute,
  retrieveItemRoute,
  updateConversationRoute,
} from './conversationRoutes.js';
import type { ConversationsContext } from './conversationsContext.js';

/** Mounts the Conversations API: conversations and their items. */
export function conversationsApi({ router, mount }: ApiRouter, context: ConversationsContext): void {
  router.post('/conversations', mount(createConversationRoute(context)));
  router.get('/conversations/:id', mount(retrieveConversationRoute(context)));
  router.post('/conversations/:id', mount(updateConversationRoute(context)));
  router.delete('/conversations/:id', mount(deleteConversationRoute(context)));
  router.get('/conversations/:id/items', mount(listItemsRoute(context)));
  router.post('/conversations/:id/items', mount(appendItemsRoute(context)));
  router.get('/conversations/:id/items/:itemId', mount(retrieveItemRoute(context)));
  router.delete('/conversations/:id/items/:itemId', mount(deleteItemRoute(context)));
}
