/** A privacy-enhanced YouTube player: the CSP allows frames from youtube-nocookie.com only. */
export function VideoEmbed({ id, title }: { id: string; title: string }) {
  return (
    <figure className="my-8">
      <div className="aspect-video overflow-hidden rounded-lg border bg-muted shadow-sm">
        <iframe
          src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(id)}?rel=0`}
          title={title}
          loading="lazy"
          allow="accelerometer; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
          referrerPolicy="strict-origin-when-cross-origin"
          allowFullScreen
          className="size-full"
        />
      </div>
      {/* A plain link as well, for readers whose browser or network blocks embedded players. */}
      <figcaption className="mt-2 text-sm text-muted-foreground">
        {title} ·{" "}
        <a href={`https://www.youtube.com/watch?v=${encodeURIComponent(id)}`} target="_blank" rel="noopener noreferrer">
          Watch on YouTube
        </a>
      </figcaption>
    </figure>
  );
}
