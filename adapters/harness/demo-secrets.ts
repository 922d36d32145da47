/**
 * The sandbox's published demo credentials (CONTRACT §10). rules/clients.yaml holds only their hashes;
 * the scenario runner needs the secrets themselves to ask for tokens.
 */
export const DEMO_SECRETS: Readonly<Record<string, string>> = {
  'demo-reseller': 'demo-reseller-secret',
  'demo-other': 'demo-other-secret',
  'demo-analyst': 'demo-analyst-secret',
  'demo-reviewer': 'demo-reviewer-secret',
};
