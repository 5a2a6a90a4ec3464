import { SHARED_REDIS } from '../../../support/redisTest.js';
import { describeSeveralInstances } from '../../../support/severalInstances.js';

describeSeveralInstances('one Redis', () => SHARED_REDIS);
