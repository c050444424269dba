/**
 * Markdown written by someone else (an issue tracker's problem statement), shown as
 * Markdown and nothing more: react-markdown builds React elements from the syntax
 * tree, never HTML strings, so text is escaped by React. Without rehype-raw, raw
 * HTML in the text is shown as the text it is, not parsed; `javascript:` and other
 * unsafe URLs are emptied by its default URL check; links carry
 * rel="nofollow noopener noreferrer" (no ranking given, no opener, no referrer);
 * images are not loaded (a picture from anywhere would tell its host who reads the
 * page): each is a link with its alt text.
 */
import Markdown, { type Components } from "react-markdown";

const REL = "nofollow noopener noreferrer";

const COMPONENTS: Components = {
  a: ({ href, children }) => (
    <a href={href} rel={REL}>
      {children}
    </a>
  ),
  img: ({ src, alt }) =>
    typeof src === "string" && src ? (
      <a href={src} rel={REL} className="image-link">
        [image: {alt || src}]
      </a>
    ) : (
      <span>[image: {alt}]</span>
    ),
};

export function UntrustedMarkdown({ text }: { text: string }) {
  return <Markdown components={COMPONENTS}>{text}</Markdown>;
}
