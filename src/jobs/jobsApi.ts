import type { RequestHandler, Router } from 'express';
import type { JobsContext } from './jobsContext.js';
import {
  createJobRoute,
  deleteJobRoute,
  jobRunsRoute,
  listJobsRoute,
  retrieveJobRoute,
  runJobNowRoute,
  setEnabledRoute,
  updateJobRoute,
} from './jobRoutes.js';
import type { RouteHandler } from '../serving/routeHandler.js';

/** `/api/jobs`: scheduled jobs, on `api` (`/api`, behind authentication, the JSON body and the key's policy). */
export function jobsApi(api: Router, jobs: JobsContext, mount: (handler: RouteHandler) => RequestHandler): void {
  api.get('/jobs', mount(listJobsRoute(jobs)));
  api.post('/jobs', mount(createJobRoute(jobs)));
  api.get('/jobs/:id', mount(retrieveJobRoute(jobs)));
  api.patch('/jobs/:id', mount(updateJobRoute(jobs)));
  api.delete('/jobs/:id', mount(deleteJobRoute(jobs)));
  api.post('/jobs/:id/pause', mount(setEnabledRoute(jobs, false)));
  api.post('/jobs/:id/resume', mount(setEnabledRoute(jobs, true)));
  api.post('/jobs/:id/run', mount(runJobNowRoute(jobs)));
  api.get('/jobs/:id/runs', mount(jobRunsRoute(jobs)));
}
