// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// The part of Multicall3 (github.com/mds1/multicall, deployed at 0xcA11bde05977b3631167028862bE2a173976CA11 on
/// Base Sepolia and most chains) that x402's facilitator and viem call: tryAggregate and aggregate3, with the
/// same signatures and semantics. anvil has no Multicall3, so the sandbox chain installs this at that address;
/// without it the facilitator cannot tell why a payment's simulation failed (a payer's low balance among others).
contract Multicall3 {
    struct Call {
        address target;
        bytes callData;
    }

    struct Call3 {
        address target;
        bool allowFailure;
        bytes callData;
    }

    struct Result {
        bool success;
        bytes returnData;
    }

    function tryAggregate(bool requireSuccess, Call[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            if (requireSuccess) require(success, "Multicall3: call failed");
            returnData[i] = Result(success, ret);
        }
    }

    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
        returnData = new Result[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory ret) = calls[i].target.call(calls[i].callData);
            require(calls[i].allowFailure || success, "Multicall3: call failed");
            returnData[i] = Result(success, ret);
        }
    }
}
