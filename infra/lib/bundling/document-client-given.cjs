// Stands in for @aws-sdk/lib-dynamodb in the Lambda bundles. Only ElectroDB requires that package
// by name, for the command classes of the wrapper it builds around a bare client; a bundler keeps
// a required module whole, with all of the DynamoDB client behind it. The services hand ElectroDB
// its wrapper already built over the commands it calls (services/src/data/electrodb-client.ts,
// which imports them as `#document-commands`), so nothing reads this module but a mistake, and a
// mistake should say so. See docs/decisions/0074-cold-starts-less-work-at-load.md.
module.exports = new Proxy(
  {},
  {
    get(_target, name) {
      if (typeof name !== 'string' || !name.endsWith('Command')) return undefined;
      throw new Error(
        `@aws-sdk/lib-dynamodb is not in this bundle: give ElectroDB the client from electroDbClient() (asked for ${name})`,
      );
    },
  },
);
