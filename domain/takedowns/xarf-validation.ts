// Validates an XARF report against the pinned xarf-spec schema (./xarf-schema: the core schema, the
// content base and the fraud and phishing types, v4.2.0, JSON Schema 2020-12). A report that fails
// cannot be sent.
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import core from './xarf-schema/xarf-core.json';
import contentBase from './xarf-schema/types/content-base.json';
import contentFraud from './xarf-schema/types/content-fraud.json';
import contentPhishing from './xarf-schema/types/content-phishing.json';

let validators: { fraud: ValidateFunction; phishing: ValidateFunction } | null = null;

function compiled(): { fraud: ValidateFunction; phishing: ValidateFunction } {
  if (validators) return validators;
  // strict: false: the schemas carry the spec's own annotation `x-recommended`.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(core).addSchema(contentBase);
  validators = { fraud: ajv.compile(contentFraud), phishing: ajv.compile(contentPhishing) };
  return validators;
}

export interface XarfProblem {
  path: string;
  message: string;
}

/** The report's problems against its type's schema (empty: valid). */
export function validateXarf(report: Record<string, unknown>): XarfProblem[] {
  const type = report.type;
  if (report.category !== 'content' || (type !== 'fraud' && type !== 'phishing')) return [{ path: '/type', message: 'a takedown report is category content, type fraud or phishing' }];
  const validate = compiled()[type];
  if (validate(report)) return [];
  return (validate.errors ?? []).map((e) => ({ path: e.instancePath || '/', message: e.message ?? 'invalid' }));
}
