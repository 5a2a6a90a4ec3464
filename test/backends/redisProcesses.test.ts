import { describeRedisProcesses } from '../support/redisProcesses.js';
import { SHARED_REDIS } from '../support/redisTest.js';

describeRedisProcesses('one Redis', () => SHARED_REDIS);
