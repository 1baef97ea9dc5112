// Stands in for jsonschema in the Lambda bundles. ElectroDB uses jsonschema only to validate each
// entity's model when the entity is built; our models are constants, built and so validated by
// every test run from the sources, so a cold start need not parse the validator (21 KB) nor run it
// over 17 models. See docs/decisions/0074-cold-starts-less-work-at-load.md.
//
// ElectroDB also asks the validator whether a value is a model to tell a model from an Entity it
// is given (a Service built over Entity instances, as every transaction is): a model passes, an
// Entity or Service instance fails, and is then joined as it is rather than built again as if it
// were a model (which throws). ElectroDB marks its instances with `_instance`; a model has none.
class Validator {
  addSchema() {}
  validate(value) {
    const isElectroInstance = typeof value === 'object' && value !== null && '_instance' in value;
    return {
      errors: isElectroInstance ? [{ property: 'instance', message: 'is an ElectroDB instance, not a model' }] : [],
    };
  }
}
Validator.prototype.customFormats = {};
module.exports = { Validator };
