/**
 * Sample logs written by this project for `vigil demo`: web access, sshd and cloud audit events
 * over the 24 hours before `nowMs`, with one story in them (a password spray from 203.0.113.7
 * that ends in a login and a new access key). Addresses come from the documentation ranges.
 * Deterministic: the same nowMs gives the same events.
 */
export function generateDemoEvents(nowMs: number, count = 3000): string[] {
  const random = mulberry32(20261121);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const start = nowMs - 24 * 3600_000;
  const at = (i: number): string => new Date(start + Math.floor((i / count) * 24 * 3600_000) + Math.floor(random() * 1000)).toISOString();
  const clients = ['198.51.100.23', '198.51.100.57', '192.0.2.14', '192.0.2.200', '198.51.100.101'];
  const users = ['alice', 'bob', 'carol', 'dave'];
  const paths = ['/', '/login', '/api/orders', '/api/orders/1042', '/static/app.js', '/admin', '/health'];
  const agents = ['Mozilla/5.0 (X11; Linux x86_64) Firefox/132.0', 'curl/8.5.0', 'Mozilla/5.0 (Macintosh) Safari/605.1.15'];
  const lines: string[] = [];
  const sprayStart = Math.floor(count * 0.6);
  for (let i = 0; i < count; i++) {
    const timestamp = at(i);
    if (i >= sprayStart && i < sprayStart + 60) {
      const last = i === sprayStart + 59;
      const user = last ? 'dave' : pick(['admin', 'root', 'oracle', 'dave', 'test']);
      lines.push(
        JSON.stringify({
          '@timestamp': timestamp,
          source: 'sshd',
          host: 'bastion-1',
          program: 'sshd',
          user,
          src_ip: '203.0.113.7',
          outcome: last ? 'success' : 'failure',
          message: last ? `Accepted password for ${user} from 203.0.113.7 port 50022 ssh2` : `Failed password for ${user} from 203.0.113.7 port ${40000 + i} ssh2`,
        }),
      );
      if (last) {
        lines.push(
          JSON.stringify({
            eventTime: timestamp,
            eventVersion: '1.08',
            eventSource: 'iam.amazonaws.com',
            eventName: 'CreateAccessKey',
            awsRegion: 'us-east-1',
            sourceIPAddress: '203.0.113.7',
            userAgent: 'aws-cli/2.15.0',
            userIdentity: { type: 'IAMUser', userName: 'dave', arn: 'arn:aws:iam::123456789012:user/dave', accountId: '123456789012' },
            requestParameters: { userName: 'dave' },
            responseElements: { accessKey: { accessKeyId: 'AKIAEXAMPLEDEMO00001', status: 'Active' } },
          }),
        );
      }
      continue;
    }
    const kind = random();
    if (kind < 0.7) {
      const status = pick([200, 200, 200, 200, 304, 404, 500, 302]);
      lines.push(
        JSON.stringify({
          '@timestamp': timestamp,
          source: 'web',
          client_ip: pick(clients),
          method: pick(['GET', 'GET', 'GET', 'POST']),
          path: pick(paths),
          status,
          bytes: Math.floor(random() * 50_000),
          duration_ms: Math.round(random() * 900) / 10,
          user_agent: pick(agents),
        }),
      );
    } else if (kind < 0.85) {
      const user = pick(users);
      lines.push(
        JSON.stringify({
          '@timestamp': timestamp,
          source: 'sshd',
          host: pick(['bastion-1', 'build-2']),
          program: 'sshd',
          user,
          src_ip: pick(clients),
          outcome: 'success',
          message: `Accepted publickey for ${user} from ${pick(clients)} port ${40000 + (i % 20000)} ssh2`,
        }),
      );
    } else {
      const user = pick(users);
      const failed = random() < 0.1;
      lines.push(
        JSON.stringify({
          eventTime: timestamp,
          eventVersion: '1.08',
          eventSource: pick(['s3.amazonaws.com', 'ec2.amazonaws.com', 'sts.amazonaws.com']),
          eventName: pick(['GetObject', 'PutObject', 'DescribeInstances', 'AssumeRole', 'ListBuckets']),
          awsRegion: pick(['us-east-1', 'eu-west-1']),
          sourceIPAddress: pick(clients),
          userAgent: 'aws-sdk-go/1.44',
          userIdentity: { type: 'IAMUser', userName: user, arn: `arn:aws:iam::123456789012:user/${user}`, accountId: '123456789012' },
          ...(failed ? { errorCode: 'AccessDenied', errorMessage: 'User is not authorized to perform this action' } : {}),
        }),
      );
    }
  }
  return lines;
}

/** A small seeded PRNG, so the demo data is the same on every machine. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
