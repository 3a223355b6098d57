const { src, dest, task } = require('gulp');

/** Copies every node and credential icon next to its compiled file in dist/. */
task('build:icons', () =>
	src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	),
);
