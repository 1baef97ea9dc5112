import { App } from 'aws-cdk-lib';
import { buildMarketplace } from '../lib/marketplace';
import { readSettings } from '../lib/settings';

// Environment-agnostic stacks: synth needs no account, region or lookups; deploy uses the caller's.
const app = new App();
buildMarketplace(app, readSettings(app));
app.synth();
