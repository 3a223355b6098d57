import {
	normalBaseUrl,
	pathWithinApi,
} from '../../nodes/MaintenanceManagement/transport/connection';

describe('normalBaseUrl', () => {
	it.each([
		['https://api.example.com/v3', 'https://api.example.com/v3'],
		['HTTPS://API.Example.COM/v3/', 'https://api.example.com/v3'],
		['https://api.example.com:443/v3', 'https://api.example.com/v3'],
		['http://localhost:80/v3', 'http://localhost/v3'],
		['http://127.0.0.1:8080/v3', 'http://127.0.0.1:8080/v3'],
		['https://api.example.com/a/./b/../v3', 'https://api.example.com/a/v3'],
		['https://api.example.com/my api/v3', 'https://api.example.com/my%20api/v3'],
		['https://api.example.com/my%7eapi%2f/v3', 'https://api.example.com/my~api%2F/v3'],
	])('writes %s as %s', (typed, normal) => {
		expect(normalBaseUrl(typed)).toBe(normal);
	});
});

describe('pathWithinApi', () => {
	it.each([
		[
			'https://api.example.com/v3',
			'https://API.EXAMPLE.COM:443/v3/locations?page=2',
			'/locations?page=2',
		],
		['https://api.example.com/v3', 'HTTPS://api.example.com/x/../v3/locations', '/locations'],
		['https://api.example.com/v3', 'locations?page=2', '/locations?page=2'],
		['https://api.example.com/v3', '/v3/locations#top', '/locations'],
		['https://api.example.com/my%20api/v3', 'https://api.example.com/my api/v3/a%7e', '/a~'],
		['http://localhost/v3', 'http://localhost:80/v3/locations', '/locations'],
	])('below %s, reads %s as %s', (base, link, path) => {
		expect(pathWithinApi(link, normalBaseUrl(base))).toBe(path);
	});

	it.each([
		['another host', 'https://api.example.org/v3/locations'],
		['another port', 'https://api.example.com:8443/v3/locations'],
		['another scheme', 'http://api.example.com/v3/locations'],
		['a longer path', 'https://api.example.com/v30/locations'],
		['a dot segment out of the base path', 'https://api.example.com/v3/../v4/locations'],
		['an encoded dot segment out of the base path', '/v3/%2e%2e/v4/locations'],
		['the base itself without a slash', 'https://api.example.com/v3'],
		['no web address', 'http://[not'],
	])('finds %s outside the API', (_label, link) => {
		expect(pathWithinApi(link, 'https://api.example.com/v3')).toBeUndefined();
	});
});
