import { type App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

/**
 * cdk-nag's AwsSolutions pack checks every synthesis of the marketplace, `cdk synth` and the
 * infra tests alike: an unacknowledged finding fails it. Each acknowledgement sits beside the
 * resource it concerns, with its reason (see docs/decisions/0011-least-privilege-and-cdk-nag.md).
 */
export const checkWithCdkNag = (app: App) => Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
