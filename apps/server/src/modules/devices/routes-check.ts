import { isIP } from 'node:net';
import type { DeviceNetwork } from '@palisade/contract';

const isCidr = (text: string) => {
  const [ip = '', prefix, extra] = text.split('/');
  const version = isIP(ip);
  if (version === 0 || extra !== undefined) return false;
  return (
    prefix === undefined ||
    (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128))
  );
};

/** Routes that iproute2 would refuse, named by index and field. */
export function routeProblems(network: DeviceNetwork): { field: string; msg: string }[] {
  const problems: { field: string; msg: string }[] = [];
  network.routes.forEach((route, index) => {
    const at = `routes.${index}`;
    if (route.address !== 'default' && !isCidr(route.address)) {
      problems.push({
        field: `${at}.address`,
        msg: `route ${index + 1}: "${route.address}" is not a CIDR block or default`,
      });
    }
    if (route.gateway !== '' && isIP(route.gateway) === 0) {
      problems.push({
        field: `${at}.gateway`,
        msg: `route ${index + 1}: gateway "${route.gateway}" is not an IP address`,
      });
    }
    if (route.gateway === '' && route.interface === '') {
      problems.push({
        field: `${at}.gateway`,
        msg: `route ${index + 1}: give a gateway or an interface`,
      });
    }
  });
  network.port_forwards.forEach((forward, index) => {
    if (isIP(forward.to_address) === 0) {
      problems.push({
        field: `port_forwards.${index}.to_address`,
        msg: `port forward ${index + 1}: "${forward.to_address}" is not an IP address`,
      });
    }
  });
  network.source_nat.forEach((nat, index) => {
    if (nat.to_address !== '' && isIP(nat.to_address) === 0) {
      problems.push({
        field: `source_nat.${index}.to_address`,
        msg: `source NAT ${index + 1}: "${nat.to_address}" is not an IP address`,
      });
    }
  });
  return problems;
}
