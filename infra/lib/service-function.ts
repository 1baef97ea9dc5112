import { join } from 'node:path';
import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { Architecture, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { repoRoot } from './settings';

export interface ServiceFunctionProps {
  /** Module under services/src, e.g. "handlers/auth/get-me" or "workers/record-order-event". */
  module: string;
  description: string;
  timeoutSeconds: number;
  memoryMb: number;
  environment: Record<string, string>;
}

// ESM bundles cannot `require`; some CommonJS dependencies still do, so give them one.
const commonJsRequireBanner =
  "import { createRequire as createRequireForCommonJs } from 'node:module'; const require = createRequireForCommonJs(import.meta.url);";

/** One Lambda function for one module of the services workspace, bundled by esbuild at synth time. */
export const serviceFunction = (scope: Construct, id: string, props: ServiceFunctionProps) =>
  new NodejsFunction(scope, id, {
    entry: join(repoRoot, 'services', 'src', `${props.module}.ts`),
    handler: 'handler',
    projectRoot: repoRoot,
    depsLockFilePath: join(repoRoot, 'package-lock.json'),
    description: props.description,
    runtime: Runtime.NODEJS_22_X,
    architecture: Architecture.ARM_64,
    timeout: Duration.seconds(props.timeoutSeconds),
    memorySize: props.memoryMb,
    environment: { ...props.environment, NODE_OPTIONS: '--enable-source-maps' },
    logGroup: new LogGroup(scope, `${id}Logs`, {
      retention: RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    }),
    bundling: {
      format: OutputFormat.ESM,
      target: 'node22',
      mainFields: ['module', 'main'],
      banner: commonJsRequireBanner,
      minify: true,
      sourceMap: true,
      // Stack traces only need file and line; embedding sources would double the bundle.
      sourcesContent: false,
      // Ship the AWS SDK version the services pin and test against, not whatever the runtime carries.
      externalModules: [],
    },
  });
