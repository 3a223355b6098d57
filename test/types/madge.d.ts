/** The part of madge's API the tests use (the package ships no types). */
declare module 'madge' {
	interface MadgeResult {
		obj(): Record<string, string[]>;
		circular(): string[][];
	}
	interface MadgeConfig {
		baseDir?: string;
		fileExtensions?: string[];
		/** The path of a tsconfig.json, or its content as written. */
		tsConfig?: string | object;
	}
	export default function madge(
		path: string | string[],
		config?: MadgeConfig,
	): Promise<MadgeResult>;
}
