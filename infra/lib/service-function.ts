import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AssetHashType, DockerImage, Duration, RemovalPolicy } from 'aws-cdk-lib';
import {
  type AddToPrincipalPolicyResult,
  PolicyDocument,
  PolicyStatement,
  Role,
  type RoleProps,
  ServicePrincipal,
} from 'aws-cdk-lib/aws-iam';
import { Architecture, Code, Function as LambdaFunction, Runtime } from 'aws-cdk-lib/aws-lambda';
import { NodejsFunction, OutputFormat } from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { bundleAliases, commonJsRequireBanner, eagerlyCompiledModules, esbuildTarget } from './bundling/options';
import { copySharedBundle, sharedBundleModules } from './bundling/shared-bundles';
import { repoRoot } from './settings';

export interface ServiceFunctionProps {
  /** Module under services/src, e.g. "handlers/auth/get-me" or "workers/record-order-event". */
  module: string;
  description: string;
  timeoutSeconds: number;
  memoryMb: number;
  environment: Record<string, string>;
  /** Packages with native code esbuild cannot bundle (sharp): left out of the bundle and installed beside it. */
  nativeModules?: readonly string[] | undefined;
  /** A bundle esbuild cannot lower arrow functions in (bundling/options.ts, eagerlyCompiledModules). */
  keepArrowFunctions?: boolean | undefined;
  /** Grants written into the role itself rather than a policy resource of their own (see InlineGrantsRole). */
  inlineGrants?: boolean;
}

/**
 * A role that holds its grants as an inline policy of its own, not in a separate AWS::IAM::Policy:
 * the same permissions, one CloudFormation resource fewer (CloudFormation takes at most 500 a
 * stack, and a route group holds a role a route).
 */
export class InlineGrantsRole extends Role {
  private readonly inlineGrants: PolicyDocument;

  constructor(scope: Construct, id: string, props: RoleProps) {
    const grants = new PolicyDocument();
    super(scope, id, { ...props, inlinePolicies: { ...props.inlinePolicies, Grants: grants } });
    this.inlineGrants = grants;
  }

  override addToPrincipalPolicy(statement: PolicyStatement): AddToPrincipalPolicyResult {
    this.inlineGrants.addStatements(statement);
    return { statementAdded: true, policyDependable: this };
  }
}

/**
 * 'registry': npm installs the version the workspace has, built for Lambda's platform (linux,
 * arm64, glibc), whatever machine synthesizes. 'workspace': a link to the workspace's own install
 * (this machine's platform), for tests that bundle offline and load the bundle here.
 */
export type NativeModuleSource = 'registry' | 'workspace';

/** The `nativeModulesFrom` context value: 'registry' unless set (`cdk synth -c nativeModulesFrom=workspace`). */
export const nativeModuleSource = (scope: Construct): NativeModuleSource => {
  const value = scope.node.tryGetContext('nativeModulesFrom') ?? 'registry';
  if (value !== 'registry' && value !== 'workspace') {
    throw new Error(`nativeModulesFrom "${value}" must be "registry" or "workspace"`);
  }
  return value;
};

/** The workspace's installed copy of a package (hoisted to the root, or kept in services). */
export const installedPackageDir = (name: string) => {
  const dir = [join(repoRoot, 'services', 'node_modules', name), join(repoRoot, 'node_modules', name)].find((d) =>
    existsSync(join(d, 'package.json')),
  );
  if (!dir) throw new Error(`${name} is not installed in the workspace: run npm install`);
  return dir;
};

const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** The shell commands that put the native packages into a bundle's node_modules. */
export const nativeModuleCommands = (outputDir: string, modules: readonly string[], from: NativeModuleSource) => {
  if (!modules.length) return [];
  if (from === 'workspace') {
    return [
      `mkdir -p ${quoted(join(outputDir, 'node_modules'))}`,
      ...modules.map(
        (name) => `ln -s ${quoted(installedPackageDir(name))} ${quoted(join(outputDir, 'node_modules', name))}`,
      ),
    ];
  }
  const pinned = modules.map((name) => {
    const { version } = JSON.parse(readFileSync(join(installedPackageDir(name), 'package.json'), 'utf8')) as {
      version: string;
    };
    return quoted(`${name}@${version}`);
  });
  // sharp's install script only checks for, or compiles, a build for this machine: the prebuilt package for Lambda is all it needs.
  return [
    `npm install --prefix ${quoted(outputDir)} --no-save --no-package-lock --no-audit --no-fund --ignore-scripts --os=linux --cpu=arm64 --libc=glibc ${pinned.join(' ')}`,
  ];
};

/** The Lambda runtime every function uses: the latest Node.js Lambda offers (cdk-nag AwsSolutions-L1). */
export const functionRuntime = Runtime.NODEJS_24_X;

/** The actions Lambda needs to write a function's logs; the log group itself is the resource. */
export const functionLogActions = ['logs:CreateLogStream', 'logs:PutLogEvents'];

/**
 * One Lambda function for one module of the services workspace, bundled by esbuild at synth time.
 * Its role has no managed policy: AWSLambdaBasicExecutionRole would let it write to every log
 * group of the account, so it may only write to its own.
 */
export const serviceFunction = (scope: Construct, id: string, props: ServiceFunctionProps) => {
  const logGroup = new LogGroup(scope, `${id}Logs`, {
    retention: RetentionDays.ONE_MONTH,
    removalPolicy: RemovalPolicy.DESTROY,
  });
  const roleProps = {
    description: `Runs ${props.description}`,
    assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
  };
  const role = props.inlineGrants
    ? new InlineGrantsRole(scope, `${id}Role`, roleProps)
    : new Role(scope, `${id}Role`, roleProps);
  role.addToPrincipalPolicy(new PolicyStatement({ actions: functionLogActions, resources: [logGroup.logGroupArn] }));
  const functionProps = {
    description: props.description,
    runtime: functionRuntime,
    architecture: Architecture.ARM_64,
    timeout: Duration.seconds(props.timeoutSeconds),
    memorySize: props.memoryMb,
    // No --enable-source-maps: it parses the bundle's source map on every cold start (16 ms of a
    // 52 ms import, measured); the logger maps an error's stack when it writes one (readable-stacks.ts).
    environment: props.environment,
    role,
    logGroup,
  };
  if (sharedBundleModules().includes(props.module)) {
    // The bundle comes from the one esbuild run that builds every function (bundling/shared-bundles.ts).
    return new LambdaFunction(scope, id, {
      code: Code.fromAsset(join(repoRoot, 'services', 'src'), {
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Tells the functions apart in the CDK's bundling cache, which cannot see into tryBundle.
          environment: { FUNCTION_MODULE: props.module },
          local: { tryBundle: (outputDir) => copySharedBundle(repoRoot, props.module, outputDir) },
          // Never used: the local build above always bundles (or throws), with no Docker involved.
          image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs24.x'),
        },
      }),
      handler: 'index.handler',
      ...functionProps,
    });
  }
  // Functions with native packages or that keep arrow functions: a build of their own.
  return new NodejsFunction(scope, id, {
    entry: join(repoRoot, 'services', 'src', `${props.module}.ts`),
    handler: 'handler',
    projectRoot: repoRoot,
    depsLockFilePath: join(repoRoot, 'package-lock.json'),
    ...functionProps,
    bundling: {
      format: OutputFormat.ESM,
      target: esbuildTarget,
      mainFields: ['module', 'main'],
      banner: commonJsRequireBanner,
      minify: true,
      sourceMap: true,
      // Stack traces only need file and line; embedding sources would double the bundle.
      sourcesContent: false,
      // Ship the AWS SDK version the services pin and test against, not whatever the runtime carries.
      externalModules: [...(props.nativeModules ?? [])],
      esbuildArgs: {
        ...Object.fromEntries(Object.entries(bundleAliases(repoRoot)).map(([name, path]) => [`--alias:${name}`, path])),
        ...(props.keepArrowFunctions
          ? {}
          : Object.fromEntries(
              Object.entries(eagerlyCompiledModules).map(([feature, on]) => [`--supported:${feature}`, String(on)]),
            )),
      },
      ...(props.nativeModules?.length
        ? {
            commandHooks: {
              beforeBundling: () => [],
              beforeInstall: () => [],
              afterBundling: (_inputDir: string, outputDir: string) =>
                nativeModuleCommands(outputDir, props.nativeModules ?? [], nativeModuleSource(scope)),
            },
          }
        : {}),
    },
  });
};
