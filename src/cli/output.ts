// The command line's output: text lines, or one JSON object a line with `--log-format json`.
// stdout may close under the server (`spot-sim | head -1`, the usual way a script waits for the
// start block): a write that fails closes the output, later lines are dropped, and the server
// goes on serving. Without an error listener Node would end the process on the first EPIPE.
import type { LogFormat } from '../config/index.ts';

export class LineOutput {
  private closed = false;

  constructor(private readonly stream: NodeJS.WritableStream & { readonly destroyed?: boolean }) {
    stream.on('error', () => {
      this.closed = true;
    });
  }

  line(text: string): void {
    if (this.closed || this.stream.destroyed === true) return;
    this.stream.write(`${text}\n`);
  }
}

/** Where the server's lines go, in the format the user chose. */
export class Log {
  constructor(
    readonly format: LogFormat,
    private readonly out: LineOutput,
  ) {}

  /** One event: a JSON object (with `time` and `event` first), or the text lines given. */
  event(event: string, fields: Record<string, unknown>, text: () => readonly string[]): void {
    if (this.format === 'json') this.out.line(JSON.stringify({ time: new Date().toISOString(), event, ...fields }));
    else {
      // One write for the whole block, so a reader never sees half of it.
      const lines = text();
      if (lines.length > 0) this.out.line(lines.join('\n'));
    }
  }
}
