/**
 * `npm run metadata`: writes the repository, homepage, bugs and author fields of package.json from
 * publisher.json, the one place the package's owner fills in. `npm run verify` fails while the two
 * disagree and warns while publisher.json holds its placeholders.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { metadataFields, publisherProblems, type Publisher } from './verify/checks';

const ROOT = join(__dirname, '..');
const publisher = JSON.parse(readFileSync(join(ROOT, 'publisher.json'), 'utf8')) as Publisher;
const file = join(ROOT, 'package.json');
const pkg = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
Object.assign(pkg, metadataFields(publisher));
writeFileSync(file, `${JSON.stringify(pkg, null, '\t')}\n`);
process.stdout.write(
	'package.json: repository, homepage, bugs and author set from publisher.json\n',
);
for (const problem of publisherProblems(publisher))
	process.stdout.write(`warning: publisher.json ${problem}\n`);
