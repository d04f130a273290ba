// Whether a request says its body is JSON: application/json or a +json type, parameters
// (charset) allowed. A JSON endpoint refuses anything else with 415 before it reads or counts
// the body: text/plain, urlencoded and multipart are what a cross-site form can send
// without a preflight.
const JSON_TYPE = /^application\/([\w.-]+\+)?json$/;

export function isJsonMediaType(contentType: string | undefined): boolean {
  return JSON_TYPE.test((contentType ?? '').split(';')[0].trim().toLowerCase());
}
