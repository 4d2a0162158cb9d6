// The type of validator.js, Ajv's code for bench_result.schema.json (written by runners/dev/schema_json.ts).

/** One way a document fails the schema, as Ajv reports it. */
export interface ValidatorError {
  /** JSON Pointer of the offending value. */
  instancePath: string;
  /** The schema keyword that failed (`required`, `type`, ...). */
  keyword: string;
  /** The keyword's details (`missingProperty`, `additionalProperty`, ...). */
  params: Record<string, unknown>;
  /** Ajv's message. */
  message?: string;
}

/** Checks `data` against the result schema; when it fails, `validate.errors` lists every error. */
export declare const validate: ((data: unknown) => boolean) & { errors?: ValidatorError[] | null };
