import type { RequestHandler, Router } from 'express';
import {
  appendItemsRoute,
  createConversationRoute,
  deleteConversationRoute,
  deleteItemRoute,
  listItemsRoute,
  retrieveConversationRoute,
  retrieveItemRoute,
  updateConversationRoute,
} from '../conversations/conversationRoutes.js';
import type { ConversationsContext } from '../conversations/conversationsContext.js';
import type { RouteHandler } from '../pipeline/routeHandler.js';
import type { ResponsesContext } from '../responses/responsesContext.js';
import { cancelResponseRoute, deleteResponseRoute, inputItemsRoute, retrieveResponseRoute } from '../responses/storedResponseRoutes.js';
import { approvalRoute } from '../runs/approvalRoute.js';
import { listRunsRoute } from '../runs/listRunsRoute.js';
import { createRunRoute, retrieveRunRoute, runEventsRoute, stopRunRoute } from '../runs/runRoutes.js';
import type { RunsContext } from '../runs/runsContext.js';
import { steerRoute } from '../runs/steerRoute.js';

/**
 * The `/v1` routes over what the store keeps: stored responses, conversations and their items,
 * and runs. `knownModel` refuses a run for a model no route takes before it starts.
 */
export function storedRoutes(
  v1: Router,
  stored: ResponsesContext & RunsContext & ConversationsContext,
  mount: (handler: RouteHandler) => RequestHandler,
  knownModel: RequestHandler,
): void {
  v1.get('/responses/:id', mount(retrieveResponseRoute(stored)));
  v1.get('/responses/:id/input_items', mount(inputItemsRoute(stored)));
  v1.delete('/responses/:id', mount(deleteResponseRoute(stored)));
  v1.post('/responses/:id/cancel', mount(cancelResponseRoute(stored)));
  v1.post('/conversations', mount(createConversationRoute(stored)));
  v1.get('/conversations/:id', mount(retrieveConversationRoute(stored)));
  v1.post('/conversations/:id', mount(updateConversationRoute(stored)));
  v1.delete('/conversations/:id', mount(deleteConversationRoute(stored)));
  v1.get('/conversations/:id/items', mount(listItemsRoute(stored)));
  v1.post('/conversations/:id/items', mount(appendItemsRoute(stored)));
  v1.get('/conversations/:id/items/:itemId', mount(retrieveItemRoute(stored)));
  v1.delete('/conversations/:id/items/:itemId', mount(deleteItemRoute(stored)));
  v1.post('/runs', knownModel, mount(createRunRoute(stored)));
  v1.get('/runs', mount(listRunsRoute(stored)));
  v1.get('/runs/:id', mount(retrieveRunRoute(stored)));
  v1.get('/runs/:id/events', mount(runEventsRoute(stored)));
  v1.post('/runs/:id/stop', mount(stopRunRoute(stored)));
  v1.post('/runs/:id/approval', mount(approvalRoute(stored)));
  v1.post('/runs/:id/steer', mount(steerRoute(stored)));
}
