import { describe, expect, it } from 'vitest';
import { decideAccess, isActiveAdmin, marketplaceRoles } from './permissions';

const photographer = { roles: ['photographer'] as const, isActive: true };

describe('decideAccess', () => {
  it('lets anyone call a public route, signed in or not', () => {
    expect(decideAccess('public', null)).toBe('allowed');
    expect(decideAccess('public', { roles: [], isActive: false })).toBe('allowed');
  });

  it('asks an anonymous caller of any other route to sign in', () => {
    expect(decideAccess('signed-in', null)).toBe('sign-in-required');
    expect(decideAccess(['admin'], null)).toBe('sign-in-required');
  });

  it('turns away a deactivated user even from routes open to every signed-in user', () => {
    expect(decideAccess('signed-in', { roles: ['admin'], isActive: false })).toBe('deactivated');
  });

  it('turns away a suspended user like a deleted one', () => {
    const suspended = { roles: ['admin'] as const, isActive: true, status: 'suspended' as const };
    expect(decideAccess('signed-in', suspended)).toBe('deactivated');
    expect(decideAccess(['admin'], suspended)).toBe('deactivated');
    expect(decideAccess(['admin'], { ...suspended, status: 'verified' })).toBe('allowed');
  });

  it('gives an invited user no role before sign-up verifies them', () => {
    const invited = { roles: ['editor'] as const, isActive: true, status: 'invited' as const };
    expect(decideAccess(['editor'], invited)).toBe('role-missing');
    expect(decideAccess('signed-in', invited)).toBe('allowed');
    expect(decideAccess(['editor'], { ...invited, status: 'verified' })).toBe('allowed');
  });

  it('lets a signed-in user with no roles reach signed-in routes but not marketplace routes', () => {
    const roleless = { roles: [], isActive: true };
    expect(decideAccess('signed-in', roleless)).toBe('allowed');
    expect(decideAccess(marketplaceRoles, roleless)).toBe('role-missing');
  });

  it('allows a caller holding any one of the listed roles', () => {
    expect(decideAccess(['editor', 'photographer'], photographer)).toBe('allowed');
    expect(decideAccess(['admin'], photographer)).toBe('role-missing');
    expect(decideAccess(['admin'], { roles: ['photographer', 'admin'], isActive: true })).toBe('allowed');
  });
});

describe('isActiveAdmin', () => {
  it('counts only admins who are neither deleted nor suspended', () => {
    expect(isActiveAdmin({ roles: ['admin'], isActive: true, status: 'verified' })).toBe(true);
    expect(isActiveAdmin({ roles: ['editor', 'admin'], isActive: true })).toBe(true);
    expect(isActiveAdmin({ roles: ['admin'], isActive: false, status: 'verified' })).toBe(false);
    expect(isActiveAdmin({ roles: ['admin'], isActive: true, status: 'suspended' })).toBe(false);
    expect(isActiveAdmin({ roles: ['editor'], isActive: true, status: 'verified' })).toBe(false);
  });
});
