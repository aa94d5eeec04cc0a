// Writes mt5/BridgeProtocol.mqh from the bridge contracts (packages/contracts/src/mt5.ts).
//   node --import tsx scripts/gen-mql-protocol.ts
// packages/contracts/test/mt5.test.ts fails when the committed file differs from this output.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { renderBridgeProtocolMqh } from '../packages/contracts/src/mt5-mql';

const target = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'mt5', 'BridgeProtocol.mqh');
writeFileSync(target, renderBridgeProtocolMqh());
console.log(`wrote ${path.relative(process.cwd(), target)}`);
