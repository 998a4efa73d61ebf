import { describeAppOperations } from '#libs/testing';
import { apiGatewayApp } from './index.js';

describeAppOperations(apiGatewayApp);
