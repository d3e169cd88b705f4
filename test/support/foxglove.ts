// A Foxglove viewer for tests: the ws-protocol's own client over `ws`, subscribed
// to some topics, keeping every decoded JSON message per topic.
import { type Channel, FoxgloveClient } from '@foxglove/ws-protocol';
import WebSocket from 'ws';

type Transform = { child_frame_id: string; translation: { x: number; y: number; z: number } };

/** A viewer: connects, subscribes to topics, keeps what arrives per topic. */
export function viewer(url: string, topics: string[]) {
  const client = new FoxgloveClient({ ws: new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]) as never });
  const channels: Channel[] = [];
  const subs = new Map<number, string>();
  const got = new Map<string, unknown[]>();
  const decoder = new TextDecoder();
  client.on('advertise', (list) => {
    channels.push(...list);
    for (const c of list) if (topics.includes(c.topic)) subs.set(client.subscribe(c.id), c.topic);
  });
  client.on('message', ({ subscriptionId, data }) => {
    const topic = subs.get(subscriptionId)!;
    if (!got.has(topic)) got.set(topic, []);
    got.get(topic)!.push(JSON.parse(decoder.decode(data as DataView)));
  });
  return { client, channels, got, last: (t: string) => got.get(t)?.at(-1) };
}

/** A frame's translation in a FrameTransforms message. */
export function frameOf(m: unknown, frame: string): Transform['translation'] | undefined {
  return (m as { transforms: Transform[] } | undefined)?.transforms.find((t) => t.child_frame_id === frame)?.translation;
}
