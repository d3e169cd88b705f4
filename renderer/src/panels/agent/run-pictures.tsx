// Pictures a tool call gave (the robot's camera), in the trace panel and in a
// replay: a thumbnail that enlarges on click, its alt text saying what it is.
// The bytes come from the host by the run's id and the picture's name in its
// trace; a picture that cannot be had says why, in the panel.
import { useEffect, useState } from 'react';
import type { AppApi } from '../../../../contract/api';
import type { RunReplay } from '../../../../contract/teaching';
import { type RunPicture, pictureAlt } from '../../../../contract/pictures';

export type PictureApi = Pick<AppApi, 'getRunImage' | 'getCaseImage'>;
/** An evaluated case's pictures are asked for by its evaluation run, case and trial; a session run's by its id. */
type EvalCase = RunReplay['evalCase'];

type Loaded = { k: 'loading' } | { k: 'ok'; url: string } | { k: 'failed'; why: string };

const why = (e: unknown): string => (e instanceof Error ? e.message : String(e)).replace(/^get(Run|Case)Image: /, '');

export function RunPictures({
  api,
  runId,
  evalCase,
  tool,
  pictures,
}: {
  api: PictureApi | undefined;
  runId: string;
  evalCase?: EvalCase;
  tool: string;
  pictures: readonly RunPicture[];
}) {
  return (
    <div className="run-pictures">
      {pictures.map((p) => (
        <Picture key={p.id} api={api} runId={runId} evalCase={evalCase} tool={tool} picture={p} />
      ))}
    </div>
  );
}

function Picture({
  api,
  runId,
  evalCase,
  tool,
  picture,
}: {
  api: PictureApi | undefined;
  runId: string;
  evalCase: EvalCase;
  tool: string;
  picture: RunPicture;
}) {
  const [shown, setShown] = useState<Loaded>({ k: 'loading' });
  const [big, setBig] = useState(false);
  useEffect(() => {
    if (!api) {
      setShown({ k: 'failed', why: 'this view is not connected to a host' });
      return;
    }
    let live = true;
    setShown({ k: 'loading' });
    const asked = evalCase ? api.getCaseImage({ ...evalCase, image: picture.id }) : api.getRunImage({ runId, image: picture.id });
    asked.then(
      (img) => live && setShown({ k: 'ok', url: `data:${img.mimeType};base64,${img.data}` }),
      (e: unknown) => live && setShown({ k: 'failed', why: why(e) }),
    );
    return () => {
      live = false;
    };
  }, [api, runId, evalCase, picture.id]);
  const alt = pictureAlt(tool, picture);
  if (shown.k === 'failed')
    return (
      <div className="picture-missing" role="note" data-testid="picture-missing" title={alt}>
        picture not available ({shown.why})
      </div>
    );
  if (shown.k === 'loading') return <div className="muted">loading the picture…</div>;
  const broken = () => setShown({ k: 'failed', why: 'the image could not be decoded' });
  return (
    <>
      <button type="button" className="picture-thumb" onClick={() => setBig(true)} aria-label={`Enlarge: ${alt}`} title={alt}>
        <img src={shown.url} alt={alt} data-testid="run-picture" onError={broken} />
      </button>
      {big && (
        <div className="picture-large" role="dialog" aria-label={alt} data-testid="run-picture-large" onClick={() => setBig(false)}>
          <figure>
            <img src={shown.url} alt={alt} onError={broken} />
            <figcaption>
              {alt}{' '}
              <button type="button" onClick={() => setBig(false)}>
                Close
              </button>
            </figcaption>
          </figure>
        </div>
      )}
    </>
  );
}
