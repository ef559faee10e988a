// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface ISandboxReceiveWithAuthorization {
    function receiveWithAuthorization(
        address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce,
        uint8 v, bytes32 r, bytes32 s
    ) external;
    function transfer(address to, uint256 value) external returns (bool);
}

/// x402's ERC-3009 deposit collector for the local sandbox chain only, written from the collector data and
/// authorisation x402's EVM package publishes (buildErc3009CollectorData, buildErc3009DepositNonce): the payer signs a
/// ReceiveWithAuthorization naming this contract as payee and keccak256(channelId, salt) as its nonce, so the
/// authorisation can fund that one channel only; the channel contract alone asks this contract to take it, and gets
/// the tokens at once. Placed at x402's address with anvil_setCode: no constructor, no immutables.
contract SandboxErc3009DepositCollector {
    address public constant BATCH_SETTLEMENT = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    error OnlyBatchSettlement();
    error InvalidSignatureLength();
    error TransferFailed();

    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData) external {
        if (msg.sender != BATCH_SETTLEMENT) revert OnlyBatchSettlement();
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) = abi.decode(collectorData, (uint256, uint256, uint256, bytes));
        if (signature.length != 65) revert InvalidSignatureLength();
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
        bytes32 nonce = keccak256(abi.encode(channelId, salt));
        ISandboxReceiveWithAuthorization(token).receiveWithAuthorization(payer, address(this), amount, validAfter, validBefore, nonce, v, r, s);
        if (!ISandboxReceiveWithAuthorization(token).transfer(msg.sender, amount)) revert TransferFailed();
    }
}
