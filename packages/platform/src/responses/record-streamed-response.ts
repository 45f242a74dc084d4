/**
 * Passes a Responses event stream through and stores its response once: an agent's at its
 * first event carrying the response (the run already exists and may pause), a plain model's
 * at the final `response.completed`/`response.incomplete` (the object as the client got it).
 */
type ResponseEvent = { type: string; response?: unknown };

export async function* recordStreamedResponse<E extends ResponseEvent>(
  events: AsyncIterable<E>,
  when: "first" | "final",
  record: (id: string, response: { id: string }) => void,
): AsyncGenerator<E> {
  let recorded = false;
  for await (const event of events) {
    const response = event.response as { id?: unknown } | undefined;
    const final = event.type === "response.completed" || event.type === "response.incomplete";
    if (!recorded && typeof response?.id === "string" && (when === "first" || final)) {
      recorded = true;
      record(response.id, response as { id: string });
    }
    yield event;
  }
}
