// Pictures in the loop. A tool that gives images (the robot's camera) answers its
// call with text as every tool does; the images follow all the turn's tool
// messages as one user message, because Chat Completions accepts image parts in
// user messages only (a tool message's content is text for most servers: OpenAI
// takes parts there, Ollama, llama.cpp and vLLM do not). The camera is offered to
// a model that reads images and to no other: a text model would be shown nothing.
import type { ChatMessage, ImagePart, Model, UserMessage } from '../../models/model';
import type { Robot } from '../../../robot/robot';
import { cameraTool, CAMERA_TOOL } from '../../tools/camera';
import type { Tool } from '../../tools/tool';

/** The images one call gave. */
export interface Shot {
  id: string;
  name: string;
  images: ImagePart[];
}

/** The user message carrying a turn's pictures to a model that reads images; undefined for a text model. */
export function pictureMessage(shots: readonly Shot[], model: Pick<Model, 'input'>): UserMessage | undefined {
  if (model.input !== 'images') return undefined;
  const images = shots.flatMap((s) => s.images);
  const from = shots.map((s) => `${s.name} (${s.id})`).join(', ');
  return {
    role: 'user',
    content: `${images.length === 1 ? 'The picture' : `The ${images.length} pictures`} from ${from}, as the tool result said.`,
    images,
  };
}

/** Pictures a conversation keeps attached: each costs the model hundreds of tokens in every later request. */
export const PICTURES_KEPT = 3;

/**
 * Detaches all but the last `keep` pictures of the history, in place: a message
 * keeps its text and says its picture is gone, so a model asks again.
 */
export function dropOlderPictures(messages: ChatMessage[], keep = PICTURES_KEPT): void {
  let seen = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role !== 'user' || !m.images?.length) continue;
    if (seen + m.images.length <= keep) {
      seen += m.images.length;
      continue;
    }
    const left = Math.max(0, keep - seen);
    const gone = m.images.length - left;
    seen += left;
    const images = m.images.slice(gone);
    messages[i] = {
      role: 'user',
      content: `${m.content} (${gone} older picture${gone === 1 ? ' is' : 's are'} no longer attached.)`,
      ...(images.length ? { images } : {}),
    };
  }
}

let camera: Tool | undefined;

/**
 * The tools with the camera added, for a model that reads images and a robot with a camera.
 * A step offered no tools (a verdict, a classifier, the VQA baseline) stays without.
 */
export function withCamera(tools: readonly Tool[], model: Pick<Model, 'input'>, robot: Robot): readonly Tool[] {
  if (!tools.length || model.input !== 'images' || !robot.camera || tools.some((t) => t.name === CAMERA_TOOL)) return tools;
  // One tool for every robot: it reads the camera of the robot its call is given.
  camera ??= cameraTool();
  return [...tools, camera];
}
