/** What an archived copy may load: its own inline styles and data: images, fonts and media. Nothing runs. */
export const SNAPSHOT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline' data:; font-src data:; media-src data:; base-uri 'none'; form-action 'none'";
