// Reads a server-sent-event response whole into {event, data} pairs (data parsed as JSON).
import { createParser } from 'eventsource-parser';

export async function readSse(res: Response): Promise<Array<{ event: string; data: any }>> {
  const out: Array<{ event: string; data: any }> = [];
  const parser = createParser({ onEvent: (e) => out.push({ event: e.event ?? 'message', data: JSON.parse(e.data) }) });
  parser.feed(await res.text());
  return out;
}
