import { Router } from 'express';
import { createResponseRoute } from './createResponseRoute.js';
import type { ResponsesContext } from './responsesContext.js';
import { cancelResponseRoute, deleteResponseRoute, retrieveResponseRoute } from './storedResponseRoutes.js';

/** The Responses API: `POST /responses`, `GET|DELETE /responses/{id}`, `POST /responses/{id}/cancel`. */
export function responsesRouter(context: Omit<ResponsesContext, 'liveDrafts'>): Router {
  const full: ResponsesContext = { ...context, liveDrafts: new Map() };
  const router = Router();
  router.post('/responses', createResponseRoute(full));
  router.get('/responses/:id', retrieveResponseRoute(full));
  router.delete('/responses/:id', deleteResponseRoute(full));
  router.post('/responses/:id/cancel', cancelResponseRoute(full));
  return router;
}
