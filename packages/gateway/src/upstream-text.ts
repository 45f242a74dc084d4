/**
 * The upstream's own JSON text of a completion or a streamed chunk, kept beside the parsed object
 * so the server can answer those bytes instead of serialising the object again. The gateway forgets the text as
 * soon as it changes anything in the object (the model name, the cache details), so whoever reads
 * it gets either the upstream's bytes for exactly this completion or nothing.
 */
const texts = new WeakMap<object, string>();

export function rememberUpstreamText(completion: object, text: string): void {
  texts.set(completion, text);
}

export function forgetUpstreamText(completion: object): void {
  texts.delete(completion);
}

/** The completion (or chunk) as JSON: the upstream's text while it still says the same, else serialised. */
export function completionJson(completion: object): string {
  return texts.get(completion) ?? JSON.stringify(completion);
}
