// Stands in for jsonschema in the Lambda bundles. ElectroDB uses jsonschema only to validate each
// entity's model when the entity is built; our models are constants, built and so validated by
// every test run from the sources, so a cold start need not parse the validator (21 KB) nor run it
// over 17 models. See docs/decisions/0074-cold-starts-less-work-at-load.md.
class Validator {
  addSchema() {}
  validate() {
    return { errors: [] };
  }
}
Validator.prototype.customFormats = {};
module.exports = { Validator };
