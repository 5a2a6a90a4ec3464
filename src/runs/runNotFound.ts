import { RequestError } from '../errors/RequestError.js';

/** 404 `run_not_found`: the one answer for a run that does not exist and for another key's run. */
export const runNotFound = (id: string): RequestError =>
  new RequestError(404, `run '${id}' not found`, 'not_found_error', null, 'run_not_found');
