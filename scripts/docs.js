/**
 * The documentation links n8n shows for the package, all made from package.json's `homepage` when the
 * package is built (gulpfile.js). The homepage is the package's npm page until the owner sets a
 * repository (scripts/verify/checks.ts, metadataProblems); either page shows the README, and either
 * scrolls to a README heading named in the address's fragment.
 *
 * n8n appends its tracking query (`?utm_source=…`) to a node's documentation link, so a fragment there
 * would swallow it: the nodes link to the page itself. A credential's link to another site is opened
 * as written, so a credential links to its README section.
 *
 * n8n's rules want a credential's `documentationUrl` to be an http URL written in its source, so the
 * source names its README section under a stand-in address, README, which the build replaces.
 */
const README = 'https://readme.invalid';

/** Where the README lives: the homepage without its fragment. */
const readmeOf = (homepage) => homepage.split('#')[0];

module.exports = { README, readmeOf };
