import { useState } from "react";
import { CsrfInput } from "~/components/csrf-input";
import type { PhotoQueueApi } from "./use-photo-queue";

const STATE_LABEL = {
  waiting: "Waiting to upload",
  uploading: "Uploading…",
  uploaded: "Uploaded",
  refused: "Not uploaded",
} as const;
const STATE_BADGE = {
  waiting: "badge badge-warning",
  uploading: "badge badge-warning",
  uploaded: "badge badge-success",
  refused: "badge badge-danger",
} as const;

/**
 * A job card's photos. With JavaScript: "Add photo" opens the camera, "From gallery" the
 * phone's photos; each is resized and queued on the device, then uploaded (use-photo-queue).
 * Without JavaScript: a plain upload form to /field/photos (the photo as it is, up to 5 MiB).
 */
export function JobPhotos({ jobId, jobTitle, queue }: { jobId: string; jobTitle: string; queue?: PhotoQueueApi }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const cameraId = `photo-camera-${jobId}`;
  const galleryId = `photo-gallery-${jobId}`;

  if (!queue?.ready) {
    return (
      <form method="post" action="/field/photos" encType="multipart/form-data" className="job-photo-form">
        <CsrfInput />
        <input type="hidden" name="jobId" value={jobId} />
        <label htmlFor={galleryId} className="label">
          Add a photo
        </label>
        <input id={galleryId} type="file" name="photo" accept="image/jpeg,image/png,image/webp" required />
        <button type="submit" className="btn btn-secondary btn-sm">
          Upload photo
        </button>
      </form>
    );
  }

  const photos = queue.photosOf(jobId);
  const onFiles = async (input: HTMLInputElement) => {
    const files = [...(input.files ?? [])];
    input.value = "";
    if (!files.length) return;
    setBusy(true);
    setError(null);
    for (const file of files) {
      const failed = await queue.add(jobId, file);
      if (failed) setError(failed);
    }
    setBusy(false);
  };

  return (
    <div className="job-photos" role="group" aria-label={`Photos of ${jobTitle}`}>
      <div className="job-photo-buttons">
        <input
          id={cameraId}
          className="visually-hidden photo-input"
          type="file"
          accept="image/*"
          capture="environment"
          onChange={(e) => void onFiles(e.currentTarget)}
        />
        <label htmlFor={cameraId} className="btn btn-secondary btn-sm">
          Add photo
        </label>
        <input
          id={galleryId}
          className="visually-hidden photo-input"
          type="file"
          accept="image/*"
          multiple
          onChange={(e) => void onFiles(e.currentTarget)}
        />
        <label htmlFor={galleryId} className="btn btn-ghost btn-sm">
          From gallery
        </label>
        {busy ? (
          <span className="muted small" role="status">
            Preparing the photo…
          </span>
        ) : null}
      </div>
      {error ? (
        <p className="field-errors" role="alert">
          {error}
        </p>
      ) : null}
      {photos.length ? (
        <ul className="job-photo-list" aria-label="Photos on this device">
          {photos.map((p, i) => (
            <li key={p.id} className={`job-photo job-photo-${p.state}`}>
              {p.url ? <img src={p.url} alt={`${i + 1} of ${photos.length}`} width={72} height={72} /> : null}
              <span className={STATE_BADGE[p.state]}>{STATE_LABEL[p.state]}</span>
              {p.state === "refused" ? (
                <span className="job-photo-refusal" role="alert">
                  {p.message}{" "}
                  <button type="button" className="btn btn-ghost btn-sm" onClick={() => void queue.dismiss(p.id)}>
                    Dismiss
                  </button>
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
