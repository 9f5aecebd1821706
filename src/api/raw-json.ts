// A reply body that is already JSON text: large, hot replies (the depth snapshot) are written
// once as text in field order, and the transports send that text as it is instead of
// serializing an object tree.

export class RawJson {
  constructor(readonly text: string) {}

  /** JSON.stringify of a RawJson gives back its value (journal, debugging). */
  toJSON(): unknown {
    return JSON.parse(this.text);
  }
}

/** The JSON text of a reply body. */
export function jsonText(body: unknown): string {
  return body instanceof RawJson ? body.text : JSON.stringify(body);
}
