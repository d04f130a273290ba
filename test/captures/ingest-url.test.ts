import { describe, expect, it } from 'vitest';
import { isPrivateAddress } from '../../src/ingest/net-guard.js';
import { normalizeUrl } from '../../src/ingest/url.js';

describe('normalizeUrl', () => {
  it('recognises the same page however it was shared', () => {
    const forms = [
      'https://example.com/blog/post',
      'HTTPS://Example.COM/blog/post/',
      'https://example.com:443/blog/post#comments',
      'https://example.com/blog/post?utm_source=twitter&utm_medium=social',
      'https://example.com/blog/post/?fbclid=abc123',
      'https://example.com/blog//post',
    ];
    for (const f of forms) expect(normalizeUrl(f), f).toBe('https://example.com/blog/post');
  });
  it('keeps meaningful query parameters, sorted', () => {
    expect(normalizeUrl('http://a.org/search?q=x&page=2&utm_campaign=y')).toBe('http://a.org/search?page=2&q=x');
    expect(normalizeUrl('http://a.org:8080/?b=1&a=2')).toBe('http://a.org:8080/?a=2&b=1');
  });
  it('drops the default http port and the root slash', () => {
    expect(normalizeUrl('http://A.org:80/')).toBe('http://a.org');
    expect(normalizeUrl('https://a.org')).toBe('https://a.org');
  });
  it('refuses what is not an http(s) URL', () => {
    expect(normalizeUrl('ftp://a.org/x')).toBeNull();
    expect(normalizeUrl('javascript:alert(1)')).toBeNull();
    expect(normalizeUrl('not a url')).toBeNull();
  });
});

describe('isPrivateAddress', () => {
  it('flags loopback, private, link-local and mapped addresses', () => {
    for (const ip of ['127.0.0.1', '10.1.2.3', '172.20.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '::1', '::', 'fd00::1', 'fe80::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '100.64.0.1']) {
      expect(isPrivateAddress(ip), ip).toBe(true);
    }
  });
  it('lets public addresses through', () => {
    for (const ip of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '172.32.0.1']) expect(isPrivateAddress(ip), ip).toBe(false);
  });
});
