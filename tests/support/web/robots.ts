/**
 * `/robots.txt` of the fixture web: Quarry's own group keeps it out of a
 * page the `*` group allows and lets it into one the `*` group forbids, so a
 * test sees that the product token `Quarry` is the one looked up.
 * @module
 */
import type { Route } from "../fixture_web.ts";

/** The robots.txt every fixture web serves. */
export const FIXTURE_ROBOTS = `# Fixture robots.txt
User-agent: *
Disallow: /pages/articles/link-list.html

User-agent: OtherBot
Disallow: /

User-agent: Quarry
Disallow: /pages/articles/http2.html
Disallow: /private/
Allow: /
`;

/** Paths the fixture robots.txt disallows for Quarry. */
export const ROBOTS_DISALLOWED = ["/pages/articles/http2.html", "/private/notes.html"];

const serveRobots: Route = (_req, url) => {
  if (url.pathname !== "/robots.txt") return undefined;
  return new Response(FIXTURE_ROBOTS, { headers: { "content-type": "text/plain" } });
};

/** Robots routes. */
export const robotsRoutes: Route[] = [serveRobots];
