// Writes an MCAP file with the maintained library (@mcap/core): JSON messages
// under JSON Schemas (the encoding Foxglove and Lichtblick read without plugins),
// chunked and indexed so a viewer can seek. Channels are made on first use.
import { readFile, writeFile } from 'node:fs/promises';
import { McapIndexedReader, McapWriter, TempBuffer } from '@mcap/core';

export class McapRecorder {
  private readonly buffer = new TempBuffer();
  private readonly writer = new McapWriter({ writable: this.buffer, useChunks: true, chunkSize: 1024 * 1024 });
  private readonly schemas = new Map<string, number>();
  private readonly channels = new Map<string, number>();
  private readonly sequence = new Map<number, number>();
  private readonly encoder = new TextEncoder();
  readonly counts = new Map<string, number>();

  static async start(profile = ''): Promise<McapRecorder> {
    const r = new McapRecorder();
    await r.writer.start({ profile, library: 'skillbridge (@mcap/core)' });
    return r;
  }

  private async channel(topic: string, schemaName: string, jsonSchema: object): Promise<number> {
    let id = this.channels.get(topic);
    if (id !== undefined) return id;
    let schemaId = this.schemas.get(schemaName);
    if (schemaId === undefined) {
      schemaId = await this.writer.registerSchema({
        name: schemaName,
        encoding: 'jsonschema',
        data: this.encoder.encode(JSON.stringify(jsonSchema)),
      });
      this.schemas.set(schemaName, schemaId);
    }
    id = await this.writer.registerChannel({ topic, schemaId, messageEncoding: 'json', metadata: new Map() });
    this.channels.set(topic, id);
    return id;
  }

  async message(topic: string, schemaName: string, jsonSchema: object, logTime: bigint, value: unknown): Promise<void> {
    const channelId = await this.channel(topic, schemaName, jsonSchema);
    const sequence = (this.sequence.get(channelId) ?? 0) + 1;
    this.sequence.set(channelId, sequence);
    await this.writer.addMessage({
      channelId,
      sequence,
      logTime,
      publishTime: logTime,
      data: this.encoder.encode(JSON.stringify(value)),
    });
    this.counts.set(topic, (this.counts.get(topic) ?? 0) + 1);
  }

  async metadata(name: string, values: Record<string, string>): Promise<void> {
    await this.writer.addMetadata({ name, metadata: new Map(Object.entries(values)) });
  }

  async save(path: string): Promise<number> {
    await this.writer.end();
    const bytes = this.buffer.get();
    await writeFile(path, bytes);
    return bytes.length;
  }
}

export interface McapContents {
  channels: Array<{ topic: string; messageEncoding: string; schemaName: string; schemaEncoding: string; schema: string }>;
  /** Decoded JSON messages per topic, in log-time order. */
  messages: Map<string, unknown[]>;
  messageCount: bigint | undefined;
  metadata: Map<string, Map<string, string>>;
}

/** Reads a JSON-encoded MCAP file back with the library's indexed reader (tests, tools). */
export async function readMcap(path: string): Promise<McapContents> {
  const reader = await McapIndexedReader.Initialize({ readable: new TempBuffer(await readFile(path)) });
  const decoder = new TextDecoder();
  const channels = [...reader.channelsById.values()].map((c) => {
    const s = reader.schemasById.get(c.schemaId);
    return {
      topic: c.topic,
      messageEncoding: c.messageEncoding,
      schemaName: s?.name ?? '',
      schemaEncoding: s?.encoding ?? '',
      schema: s ? decoder.decode(s.data) : '',
    };
  });
  const messages = new Map<string, unknown[]>();
  for await (const m of reader.readMessages()) {
    const topic = reader.channelsById.get(m.channelId)!.topic;
    if (!messages.has(topic)) messages.set(topic, []);
    messages.get(topic)!.push(JSON.parse(decoder.decode(m.data)));
  }
  const metadata = new Map<string, Map<string, string>>();
  for await (const m of reader.readMetadata()) metadata.set(m.name, m.metadata);
  return { channels, messages, messageCount: reader.statistics?.messageCount, metadata };
}
