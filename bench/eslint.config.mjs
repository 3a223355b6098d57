import { nodeSide } from '../eslint.node.mjs';

export default nodeSide();
