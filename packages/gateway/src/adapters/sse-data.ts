/**
 * The `data` of each Server-Sent Event, decoded across chunk boundaries (lines end in LF, CRLF
 * or CR; a blank line ends an event; multi-line data is joined with LF; comments and other
 * fields are skipped). A plain parser, fed chunk by chunk, so a stream's reader pays no promise
 * or generator per event; {@link sseData} wraps it for async iteration.
 */
export class SseDataParser {
  private readonly decoder = new TextDecoder();
  private buffer = "";
  private data: string[] = [];

  /** The events that end within this chunk. */
  push(chunk: Uint8Array | string): string[] {
    this.buffer += typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    return this.lines(false, []);
  }

  /** The events still open when the stream ends (an unterminated last event included). */
  end(): string[] {
    this.buffer += this.decoder.decode();
    const events = this.lines(true, []);
    if (this.buffer !== "") this.take(this.buffer, events);
    this.buffer = "";
    if (this.data.length > 0) events.push(this.data.join("\n"));
    this.data = [];
    return events;
  }

  private lines(final: boolean, events: string[]): string[] {
    const buffer = this.buffer;
    let start = 0;
    for (let i = 0; i < buffer.length; i++) {
      const char = buffer.charCodeAt(i);
      if (char !== 10 && char !== 13) continue;
      // A CR at the very end may be the first half of a CRLF split across chunks.
      if (char === 13 && i === buffer.length - 1 && !final) break;
      this.take(buffer.slice(start, i), events);
      if (char === 13 && buffer.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
    this.buffer = start === 0 ? buffer : buffer.slice(start);
    return events;
  }

  private take(line: string, events: string[]): void {
    if (line === "") {
      if (this.data.length === 0) return;
      events.push(this.data.length === 1 ? (this.data[0] as string) : this.data.join("\n"));
      this.data = [];
      return;
    }
    if (line.startsWith("data:")) this.data.push(line.charCodeAt(5) === 32 ? line.slice(6) : line.slice(5));
  }
}

/** The `data` of each event of a byte stream (see {@link SseDataParser}). */
export async function* sseData(chunks: AsyncIterable<Uint8Array>): AsyncIterable<string> {
  const parser = new SseDataParser();
  for await (const chunk of chunks) yield* parser.push(chunk);
  yield* parser.end();
}
