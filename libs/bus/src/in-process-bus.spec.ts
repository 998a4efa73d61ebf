import { busConformance } from './bus.conformance.js';
import { InProcessBus } from './in-process-bus.js';

busConformance('InProcessBus', async (logger) => new InProcessBus(logger, 2000));
