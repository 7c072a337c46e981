import type { Me } from '@gatehouse/schemas';

/** What every section of the profile page gets (its own file, so sections and their registry import no cycle). */
export type ProfileSectionProps = { me: Me };
