import { DateTime } from "./records";

type Photo = { id: string; takenAt: string; takenByName: string | null; byteSize: number };

const size = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;

/**
 * A job's photos from the field on the job page: each a thumbnail (the stored image scaled by
 * the browser, loaded lazily) linking to the full image, with when and by whom it was taken.
 */
export function JobPhotoGallery({ jobId, photos }: { jobId: string; photos: Photo[] }) {
  return (
    <section className="card" aria-labelledby="photos-title">
      <div className="card-header">
        <h2 id="photos-title">Photos</h2>
        {photos.length ? (
          <span className="muted">{photos.length === 1 ? "1 photo" : `${photos.length} photos`}</span>
        ) : null}
      </div>
      {photos.length ? (
        <ul className="photo-grid">
          {photos.map((p, i) => {
            const href = `/jobs/${jobId}/photos/${p.id}`;
            const who = p.takenByName ?? "Former member";
            return (
              <li key={p.id} className="photo-tile">
                <a href={href} target="_blank" rel="noreferrer">
                  <img
                    src={href}
                    alt={`Taken by ${who} (${i + 1} of ${photos.length})`}
                    loading="lazy"
                    width={160}
                    height={120}
                  />
                </a>
                <span className="small">
                  <DateTime value={p.takenAt} />
                  <br />
                  {who} <span className="muted">· {size(p.byteSize)}</span>
                </span>
              </li>
            );
          })}
        </ul>
      ) : (
        <p className="muted">No photos yet. Technicians add them from the field app, even offline.</p>
      )}
    </section>
  );
}
